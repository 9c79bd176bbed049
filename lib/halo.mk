# lib/halo.mk: fragment of the halo module (sources, headers, tests, tools).
