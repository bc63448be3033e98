"""``hiera-ls check``: the server's diagnostics over a whole repository, as CI reports.

``run.py`` runs the server's own :meth:`Diagnostics.file_problems` on every file for every
facts profile; ``redact.py`` keeps data values out of the messages; the other modules write
the findings in the formats CI systems read. Nothing here imports LSP.
"""
