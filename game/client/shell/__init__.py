"""The app shell: one window, one pygame_gui manager, the scene stack, settings and sound. Names no scene or game."""
