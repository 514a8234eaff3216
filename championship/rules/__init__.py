"""The rulebook in code: plain Python, no Django.

- ``timing``: penalties, validity and what an attempt comes to;
- ``captures``: what an entry's captures make of its result's inputs;
- ``ranking``: places, official places and prizes of a round;
- ``advancement``: who goes on to the next round;
- ``eligibility``: who is eligible, which entries are official, age limits;
- ``identity``: who is the same person (one entry per person per category);
- ``deadline``: when registration closes;
- ``seating``: seating order and the split into heats.

The parameters come from ``championship.rulesets`` (the presets).
"""
