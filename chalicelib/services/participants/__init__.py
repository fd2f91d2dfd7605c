"""An event as each participant sees it: the reads, the checks every rule starts from, the co-hosts, the JSON shapes."""
