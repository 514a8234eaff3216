"""The championship interchange format, version 4: one JSON document holds a whole championship.

Terms, as in ``docs/interchange.md``:

document
    ``{"format": "speedpuzzling-championship", "version": 4, "championship": ...,
    "tables": [...], "persons": [...], "competitions": [...]}``: the championship,
    the venue's tables, the persons, and per competition (category) its entries and
    rounds, each round with its heats, seats and results.
id
    A person's or an entry's ``ref``: a string unique among the document's persons,
    or among all its entries. The import keeps them and the export gives them back.
path
    Where something is in the document, as ``competitions[0].entries[3].members[1]``;
    every import error names one.
computed fields
    What the rules derive from a result's inputs (place, official place, official,
    outcome, final seconds, penalty seconds, counted pieces, qualified, prize). The
    export adds them; the import ignores them and recomputes them.

``interchange.export.export_document`` reads a championship in a fixed number
of queries; ``interchange.write.import_document`` checks the whole document
before it writes anything: its shape against ``docs/interchange.schema.json``
(``interchange.schema``), then its references and meaning (``interchange.read``,
``interchange.read_competition``, with ``interchange.values`` for each value);
then it writes it in one transaction.
"""
