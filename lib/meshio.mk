# lib/meshio.mk: fragment of the meshio module (sources, headers, tests, tools).
