"""Outbound webhooks: delivery and the routes that register them."""
