"""Highlander, Diplomacy for two (TATZ 04/2005).

The Diplomacy engine it builds on lives in ``highlander.diplomacy``; the variant layer (the
two-player rules, the game protocol object) is a separate piece of work and not here yet.
"""
