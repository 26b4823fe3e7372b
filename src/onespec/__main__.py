"""``python -m onespec``: the ``onespec`` command line, where the console script is not on PATH."""

from onespec.validators_runtime.cli import main

if __name__ == "__main__":
    main()
