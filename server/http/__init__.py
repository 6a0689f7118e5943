"""HTTP routes and what they answer: the API, history, audit, read models, problem details, docs and web pages."""
