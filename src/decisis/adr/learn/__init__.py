"""Learning: corrections ("the answer to this question is KEY") as graph nodes and trust
moves (``corrections``), and what was learnt, for people (``learned``)."""
