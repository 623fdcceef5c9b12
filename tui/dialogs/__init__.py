"""The shell's dialogs: the frame every game's decision dialogs share (``frame.DecisionScreen``),
the director that decides which dialog is open (``director.py``), and the plain chooser over the
rules' legal actions for a decision no dialog of the game serves (``choose.py``).  Each game's
own dialogs live in its client part (``tui/games/<game>/``)."""
