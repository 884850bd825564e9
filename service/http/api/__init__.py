"""The REST API: thin controllers that decode, call one service function, and answer."""
