"""Reading the person's request before any call: which events each part names, what happens to
each, and the phrases anchored at an event.
"""
