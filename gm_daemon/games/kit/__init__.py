"""The games' shared toolkit: one way each game says things, lays out reports and draws.

``phrases`` — the phrase catalogue (one API, one fallback rule, plurals);
``layout`` — text tables, rankings, name lists, wrapping to mail width;
``picture`` — the Pillow base (canvas, the one shipped font, labels that never overlap,
PNG bytes, colours per seat);
``headers`` — the numbered phase header (``Runde: 3``) most games use;
``rounds`` — the phase facts of a game of simultaneous rounds, as a base class;
``names`` — finding whom or what a player names, and the guess for a near miss;
``ondemand`` — ``Report.private`` rendered seat by seat as the mails ask for it.
A new game starts from these instead of inventing its own.
"""
