"""Getting paid: the bank's statements read, matched to the entries, and applied.

The organiser uploads what the bank delivers (ISO 20022 camt.053 and camt.054, or
a bank's or Swish's CSV export); each credit is matched to an entry by its payment
reference, or offered for confirmation by its amount and a member's name, never
applied silently. Applying a statement marks the matched entries paid, with the
statement's line as evidence. The same file twice changes nothing. It sits above
registration (entries and their payment status) and below the faces (the control
room's pages, the API).
"""
