"""Bring-your-own-model evaluation: natural requests, a seeded calendar, the real agent loop."""
