"""MCR rules: the tile vocabulary, hands, fans and payouts. Pure Python; imports no image code."""
