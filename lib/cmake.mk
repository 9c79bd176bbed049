# lib/cmake.mk: the CMake package (find_package(Tessera), target
# Tessera::tessera) beside tessera.pc, written by make so that the paths are
# those of `make install` (prefix=... on make's command line included).
tsrcmakedir = $(libdir)/cmake/Tessera
tsrcmake_DATA = lib/cmake/TesseraConfig.cmake lib/cmake/TesseraConfigVersion.cmake
EXTRA_DIST += lib/cmake/TesseraConfig.cmake.in lib/cmake/TesseraConfigVersion.cmake.in
CLEANFILES += $(tsrcmake_DATA)
tsr_cmake_subst = sed -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	-e 's|@TSR_VERSION_MAJOR[@]|'`echo $(PACKAGE_VERSION) | cut -d. -f1`'|g' \
	-e 's|@TSR_VERSION_MINOR[@]|'`echo $(PACKAGE_VERSION) | cut -d. -f2`'|g' \
	-e 's|@libdir[@]|$(libdir)|g' -e 's|@includedir[@]|$(includedir)|g' \
	-e 's|@HDF5_CFLAGS[@]|$(HDF5_CFLAGS)|g' -e 's|@HDF5_LIBS[@]|$(HDF5_LIBS)|g'
lib/cmake/TesseraConfig.cmake: $(srcdir)/lib/cmake/TesseraConfig.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) lib/cmake && $(tsr_cmake_subst) $(srcdir)/lib/cmake/TesseraConfig.cmake.in >$@.tmp && mv $@.tmp $@
lib/cmake/TesseraConfigVersion.cmake: $(srcdir)/lib/cmake/TesseraConfigVersion.cmake.in Makefile
	$(AM_V_GEN)$(MKDIR_P) lib/cmake && $(tsr_cmake_subst) $(srcdir)/lib/cmake/TesseraConfigVersion.cmake.in >$@.tmp && mv $@.tmp $@
