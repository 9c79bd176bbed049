# lib/layout.mk: fragment of the layout module (sources, headers, tests, tools).
# zorder: stretched Morton code and plane rank tables.
lib_libtessera_la_SOURCES += lib/src/zorder.c
tsr_include_HEADERS += lib/include/tessera/zorder.h

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_zorder
TESTS += tests/unit/check_zorder
tests_unit_check_zorder_SOURCES = tests/unit/check_zorder.c
tests_unit_check_zorder_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_zorder_LDADD = $(TEST_LDADD)
endif

# layout: tsr_layout_t builders, generic offset, transform.
lib_libtessera_la_SOURCES += lib/src/layout.c lib/src/layout_internal.h
tsr_include_HEADERS += lib/include/tessera/layout.h
if HAVE_CUDA
lib_libtessera_la_SOURCES += lib/src/cuda/layout_transform.cu
endif
EXTRA_DIST += lib/src/cuda/layout_transform.cu

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_layout
TESTS += tests/unit/check_layout
tests_unit_check_layout_SOURCES = tests/unit/check_layout.c
tests_unit_check_layout_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_layout_LDADD = $(TEST_LDADD)
endif


# kernels/copy: a copy kernel written through the layout offsets (CPU and
# CUDA variants, variants.def); the copybench app links libcopy.la.
noinst_LTLIBRARIES += kernels/copy/libcopy.la
kernels_copy_libcopy_la_SOURCES = kernels/copy/copy.h kernels/copy/copy_cpu.c \
	kernels/copy/copy_variants.c
kernels_copy_libcopy_la_LIBADD =
if HAVE_CUDA
kernels_copy_libcopy_la_SOURCES += kernels/copy/copy_cuda.cu
kernels_copy_libcopy_la_LIBADD += $(CUDA_LIBS) -lstdc++
endif
EXTRA_DIST += kernels/copy/variants.def kernels/copy/copy_cuda.cu

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_copy tests/cuda/check_copy
TESTS += tests/unit/check_copy tests/cuda/check_copy
tests_unit_check_copy_SOURCES = tests/unit/check_copy.c
tests_unit_check_copy_CFLAGS = $(TEST_CFLAGS)
tests_unit_check_copy_LDADD = kernels/copy/libcopy.la $(TEST_LDADD)
tests_cuda_check_copy_SOURCES = tests/cuda/check_copy.c
tests_cuda_check_copy_CFLAGS = $(TEST_CFLAGS)
tests_cuda_check_copy_LDADD = kernels/copy/libcopy.la $(TEST_LDADD)
endif
