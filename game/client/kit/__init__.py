"""The drawing kit every scene uses: theme and fonts, text, colours, shapes and program markers. Imports no scene."""
