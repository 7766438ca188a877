"""decisis: decision memory for AI agents and engineering teams."""
