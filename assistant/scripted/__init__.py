"""The scripted model behind `demo` and `replay`: a fake Anthropic Messages API served on
127.0.0.1, and the demo's sample calendar and script (package data under `data/`).
"""
