"""Developer tools the game never imports: screenshots (``main.py shots``) and benchmarks (``main.py bench``)."""
