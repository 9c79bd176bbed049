# lib/neigh.mk: fragment of the neigh module (sources, headers, tests, tools).
