"""The calendar itself, with no I/O: the event model, patches, occurrences of a series,
repeat rules, free time, and events in words.
"""
