"""What Goes Up's rules engine: pure Python plus PyYAML, never pygame and never ``random``."""
