"""`memlint server`: a Language Server (stdio) on pygls, behind the `server` extra.

app.py holds the pygls server and its handlers; documents.py what it knows
(settings per project, per-file summaries, the lint of each open document);
incremental.py re-parses only the statements an edit touches; notebooks.py
joins a notebook's cells and moves findings into them; convert.py turns
findings and edits into LSP types; actions.py builds code actions. Nothing
here imports torch or runs the code it lints.
"""
