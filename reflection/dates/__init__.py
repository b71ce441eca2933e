"""The date grammar: phrases in a message to every reading they can have (CONTRACT section 4).

Pure Python on the standard library and dateutil: importable with nothing heavy.
"""
