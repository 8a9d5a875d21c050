# sqlearn build, run and test entry points.
#
#   make run    build and start the server on ./sqlearn-data (127.0.0.1:3306)
#   make test   install what the tests need, then run every test
#
# OpenBLAS is used for matrix kernels when libopenblas is installed
# (`make deps` installs it); otherwise the pure-Go kernels are built.

GO        ?= go
DATA_DIR  ?= ./sqlearn-data
ADDR      ?= 127.0.0.1:3306
DATASETS  ?= $(abspath ../shared/datasets)

OPENBLAS  := $(firstword $(wildcard /usr/lib/*/libopenblas.so /usr/lib/libopenblas.so))
ifneq ($(OPENBLAS),)
TAGS      := openblas
export CGO_LDFLAGS := -lopenblas
endif

# Debian packages the tests use: real clients and the reference
# implementations results are compared against.
TEST_PACKAGES := mariadb-client python3-pymysql libopenblas-dev python3-numpy \
	python3-scipy python3-sklearn python3-networkx default-jdk-headless libmariadb-java \
	python3-sqlalchemy python3-pandas odbc-mariadb unixodbc python3-pyodbc

.PHONY: run build deps test test-race vet vet-cuda cuda-deps bench clean

build:
	$(GO) build -tags '$(TAGS)' -o bin/sqlearn ./cmd/sqlearn

run: build
	./bin/sqlearn serve --addr $(ADDR) --data-dir $(DATA_DIR) --import-dir $(DATASETS)

# deps installs missing Debian packages (needs root, as on CI).
deps:
	@missing=""; for p in $(TEST_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

vet:
	$(GO) vet -tags '$(TAGS)' ./...

# test re-runs make so the OpenBLAS detection sees packages deps installed.
test: deps
	$(MAKE) --no-print-directory vet vet-cuda test-all test-race

.PHONY: test-all
test-all:
	SQLEARN_TAGS='$(TAGS)' SQLEARN_DATASETS=$(DATASETS) $(GO) test -tags '$(TAGS)' -count=1 -timeout 30m ./...

# The packages with concurrency run again under the race detector.
test-race:
	SQLEARN_DATASETS=$(DATASETS) $(GO) test -race -count=1 -timeout 30m ./storage ./replication ./sqlext

# cuda-deps installs Debian's CUDA 11.8 headers and libraries (needs root).
cuda-deps:
	if [ "$$(id -u)" = 0 ]; then gpu/install-cuda-dev.sh; else sudo gpu/install-cuda-dev.sh; fi

# vet-cuda compiles, vets and tests the CUDA device when the headers exist
# (its GPU tests skip without a device).
vet-cuda:
	@if test -e /usr/include/cuda.h; then \
		$(GO) vet -tags 'cuda $(TAGS)' ./gpu && $(GO) test -count=1 -tags 'cuda $(TAGS)' ./gpu; \
	else echo "vet-cuda: no /usr/include/cuda.h (make cuda-deps); skipped"; fi

bench:
	bench/sysbench.sh

clean:
	rm -rf bin
