"""The window sizes the headless UI tests check a screen at: the smallest supported, full HD and 4K (imported
by the tests in this folder, which pytest puts on the path)."""

SIZES = [(1280, 720), (1920, 1080), (3840, 2160)]
SIZE_IDS = ["1280x720", "1920x1080", "3840x2160"]
