"""prepguide: engineering write-ups into checked career-prep guides."""

__version__ = "0.1.0"
