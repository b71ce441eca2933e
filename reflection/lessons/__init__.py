"""Lessons: grounded findings kept as past observations for later turns, and the sanitising of
their text.
"""
