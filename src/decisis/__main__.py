"""``python -m decisis`` runs the command line."""

from decisis.cli import main

if __name__ == "__main__":
    main()
