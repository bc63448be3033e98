"""Lets ``python -m hiera_ls`` work where the console script is not on PATH."""

from hiera_ls.cli import main

raise SystemExit(main())
