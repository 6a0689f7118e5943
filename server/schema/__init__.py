"""The API described: the OpenAPI document and the TypeScript declarations made from it."""
