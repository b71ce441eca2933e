"""What a turn changed and who owns it: the snapshot journal, turn owners, and the person's list of
changes with undo and redo.
"""
