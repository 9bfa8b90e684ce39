"""``make bench``: what exactness costs, measured against float peers in the same run."""
