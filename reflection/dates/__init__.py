"""The date grammar: phrases in a message to every reading they can have (CONTRACT section 4).

Pure Python on the standard library, dateutil and the weekdays' names of `tools.calendar.wording`:
importable with nothing heavy (tests/test_import_rules.py holds it).
"""
