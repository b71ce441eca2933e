"""assistant/tui"""
