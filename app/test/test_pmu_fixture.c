/* SPDX-License-Identifier: BSD-3-Clause
 * Copyright(c) 2026 The rte_pmu authors
 */

/* Fixture sysfs trees for the tests of event names and sysfs parsing:
 * nothing here needs PMU hardware. Made in a folder from mkdtemp(), one
 * root per architecture and a folder outside all of them:
 *  x86/cpu             Intel-like core PMU, type 4
 *  x86/msr             type 9, event=config:0-63
 *  x86/notype          a PMU folder without a type file
 *  x86/badfmt          a PMU whose format file is malformed
 *  x86/README          a file, not a PMU folder
 *  amd/cpu             AMD-like core PMU: event=config:0-7,32-35
 *  arm64/armv8_pmuv3_0 type 8, long=config1:0, rdpmc=config1:1
 *  hybrid/             Alder-Lake-like: cpu_core (type 4, CPUs 0-15, has
 *                      "slots") and cpu_atom (type 10, CPUs 16-23), msr,
 *                      power (events with .scale and .unit files)
 *  biglittle/          Cortex-A53 + A72: armv8_cortex_a53 (type 8, "cpus"
 *                      0-3), armv8_cortex_a72 (type 9, "cpumask" 4-5, has
 *                      l1d_cache_refill_rd)
 *  hybridsw/, biglsw/  the same shapes on CPUs 0 and 1 with the software
 *                      PMU's type, for group opens on any kernel
 *  evil/               a PMU-like folder no name may reach
 */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rte_common.h>

#include "pmu_private.h"
#include "test.h"
#include "test_pmu_fixture.h"

/* "/tmp/pmu_fixture_XXXXXX" once made. */
char fixture_dir[32];

/* A file of the fixture and its content. */
struct fixture_file {
	const char *path;
	const char *content;
};

static const struct fixture_file fixture_files[] = {
	/* Intel-like core PMU. */
	{ "x86/cpu/type", "4\n" },
	{ "x86/cpu/format/event", "config:0-7\n" },
	{ "x86/cpu/format/umask", "config:8-15\n" },
	{ "x86/cpu/format/edge", "config:18\n" },
	{ "x86/cpu/format/inv", "config:23\n" },
	{ "x86/cpu/format/cmask", "config:24-31\n" },
	{ "x86/cpu/format/ldlat", "config1:0-15\n" },
	{ "x86/cpu/events/cpu-cycles", "event=0x3c\n" },
	{ "x86/cpu/events/instructions", "event=0xc0\n" },
	{ "x86/cpu/events/branch-misses", "event=0xc5\n" },
	{ "x86/cpu/events/ref-cycles", "event=0x00,umask=0x03\n" },
	{ "x86/cpu/events/mem-loads", "event=0xcd,umask=0x1,ldlat=3\n" },
	{ "x86/cpu/events/raw-conf", "config=0x5300c0\n" },
	{ "x86/cpu/events/slow-edge", "event=0x3c,edge,period=1000\n" },
	{ "x86/cpu/events/stall-param", "event=0xa3,umask=0x04,cmask=?\n" },
	{ "x86/cpu/events/bad-term", "event=0x1,bogus=3\n" },
	{ "x86/cpu/events/bad-value", "event=zz\n" },
	{ "x86/cpu/events/empty", "" },
	{ "x86/cpu/events/too-wide", "event=0x100\n" },
	{ "x86/cpu/events/nested", "cpu-cycles\n" },
	{ "x86/cpu/rdpmc", "1\n" },
	/* Uncore-like PMUs. */
	{ "x86/msr/type", "9\n" },
	{ "x86/msr/format/event", "config:0-63\n" },
	{ "x86/msr/events/tsc", "event=0x00\n" },
	{ "x86/msr/events/aperf", "event=0x01\n" },
	{ "x86/notype/format/event", "config:0-7\n" },
	{ "x86/badfmt/type", "12\n" },
	{ "x86/badfmt/format/event", "config:0-7,junk\n" },
	{ "x86/README", "not a PMU\n" },
	/* AMD-like core PMU. */
	{ "amd/cpu/type", "4\n" },
	{ "amd/cpu/format/event", "config:0-7,32-35\n" },
	{ "amd/cpu/format/umask", "config:8-15\n" },
	/* arm64 core PMU. */
	{ "arm64/armv8_pmuv3_0/type", "8\n" },
	{ "arm64/armv8_pmuv3_0/format/event", "config:0-15\n" },
	{ "arm64/armv8_pmuv3_0/format/long", "config1:0\n" },
	{ "arm64/armv8_pmuv3_0/format/rdpmc", "config1:1\n" },
	{ "arm64/armv8_pmuv3_0/events/cpu_cycles", "event=0x0011\n" },
	{ "arm64/armv8_pmuv3_0/events/inst_retired", "event=0x0008\n" },
	/* Hybrid x86: two core PMUs, each with its CPUs. */
	{ "hybrid/cpu_core/type", "4\n" },
	{ "hybrid/cpu_core/cpus", "0-15\n" },
	{ "hybrid/cpu_core/format/event", "config:0-7\n" },
	{ "hybrid/cpu_core/format/umask", "config:8-15\n" },
	{ "hybrid/cpu_core/events/cpu-cycles", "event=0x3c\n" },
	{ "hybrid/cpu_core/events/instructions", "event=0xc0\n" },
	{ "hybrid/cpu_core/events/slots", "event=0x00,umask=0x4\n" },
	{ "hybrid/cpu_atom/type", "10\n" },
	{ "hybrid/cpu_atom/cpus", "16-23\n" },
	{ "hybrid/cpu_atom/format/event", "config:0-7\n" },
	{ "hybrid/cpu_atom/format/umask", "config:8-15\n" },
	{ "hybrid/cpu_atom/events/cpu-cycles", "event=0x3c\n" },
	{ "hybrid/cpu_atom/events/instructions", "event=0xc0\n" },
	{ "hybrid/msr/type", "9\n" },
	{ "hybrid/msr/format/event", "config:0-63\n" },
	{ "hybrid/msr/events/tsc", "event=0x00\n" },
	{ "hybrid/power/type", "21\n" },
	{ "hybrid/power/format/event", "config:0-7\n" },
	{ "hybrid/power/events/energy-pkg", "event=0x02\n" },
	{ "hybrid/power/events/energy-pkg.scale", "2.3283064365386962890625e-10\n" },
	{ "hybrid/power/events/energy-pkg.unit", "Joules\n" },
	/* big.LITTLE arm64: one PMU per cluster. */
	{ "biglittle/armv8_cortex_a53/type", "8\n" },
	{ "biglittle/armv8_cortex_a53/cpus", "0-3\n" },
	{ "biglittle/armv8_cortex_a53/format/event", "config:0-15\n" },
	{ "biglittle/armv8_cortex_a53/format/long", "config1:0\n" },
	{ "biglittle/armv8_cortex_a53/format/rdpmc", "config1:1\n" },
	{ "biglittle/armv8_cortex_a53/events/cpu_cycles", "event=0x0011\n" },
	{ "biglittle/armv8_cortex_a53/events/inst_retired", "event=0x0008\n" },
	{ "biglittle/armv8_cortex_a53/events/l1d_cache_refill", "event=0x0003\n" },
	{ "biglittle/armv8_cortex_a53/events/l1d_tlb_refill", "event=0x0005\n" },
	{ "biglittle/armv8_cortex_a72/type", "9\n" },
	{ "biglittle/armv8_cortex_a72/cpumask", "4-5\n" },
	{ "biglittle/armv8_cortex_a72/format/event", "config:0-15\n" },
	{ "biglittle/armv8_cortex_a72/format/long", "config1:0\n" },
	{ "biglittle/armv8_cortex_a72/format/rdpmc", "config1:1\n" },
	{ "biglittle/armv8_cortex_a72/events/cpu_cycles", "event=0x0011\n" },
	{ "biglittle/armv8_cortex_a72/events/inst_retired", "event=0x0008\n" },
	{ "biglittle/armv8_cortex_a72/events/l1d_cache_refill_rd", "event=0x0042\n" },
	{ "biglittle/armv8_cortex_a72/events/br_retired", "event=0x0021\n" },
	/* Two core types whose type is the software PMU's (1): groups open
	 * on any kernel. "work" counts task-clock (config 1) on the first
	 * type, page-faults (2) on the second; "core-only" exists on the first.
	 */
	{ "hybridsw/cpu_core/type", "1\n" },
	{ "hybridsw/cpu_core/cpus", "0\n" },
	{ "hybridsw/cpu_core/format/event", "config:0-63\n" },
	{ "hybridsw/cpu_core/events/work", "event=0x1\n" },
	{ "hybridsw/cpu_core/events/core-only", "event=0x1\n" },
	{ "hybridsw/cpu_atom/type", "1\n" },
	{ "hybridsw/cpu_atom/cpus", "1\n" },
	{ "hybridsw/cpu_atom/format/event", "config:0-63\n" },
	{ "hybridsw/cpu_atom/events/work", "event=0x2\n" },
	{ "biglsw/armv8_cortex_a53/type", "1\n" },
	{ "biglsw/armv8_cortex_a53/cpus", "0\n" },
	{ "biglsw/armv8_cortex_a53/format/event", "config:0-63\n" },
	{ "biglsw/armv8_cortex_a53/format/rdpmc", "config1:1\n" },
	{ "biglsw/armv8_cortex_a53/events/work", "event=0x1\n" },
	{ "biglsw/armv8_cortex_a53/events/core-only", "event=0x1\n" },
	{ "biglsw/armv8_cortex_a72/type", "1\n" },
	{ "biglsw/armv8_cortex_a72/cpumask", "1\n" },
	{ "biglsw/armv8_cortex_a72/format/event", "config:0-63\n" },
	{ "biglsw/armv8_cortex_a72/format/rdpmc", "config1:1\n" },
	{ "biglsw/armv8_cortex_a72/events/work", "event=0x2\n" },
	/* Outside every root: a name that reaches it escaped. */
	{ "evil/type", "99\n" },
	{ "evil/format/event", "config:0-63\n" },
	{ "evil/events/leak", "event=0x77\n" },
	{ "evil/cpu/type", "99\n" },
	{ "evil/cpu/events/leak", "event=0x77\n" },
};

/* Create the folders above @p path (a path under fixture_dir). */
static int
make_parents(char *path)
{
	char *slash;

	for (slash = strchr(path + strlen(fixture_dir) + 1, '/'); slash != NULL;
			slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST) {
			printf("mkdir %s: %s\n", path, strerror(errno));
			*slash = '/';
			return -1;
		}
		*slash = '/';
	}
	return 0;
}

static int
fixture_write(const struct fixture_file *f)
{
	char path[PATH_MAX];
	size_t len;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", fixture_dir, f->path);
	if (make_parents(path) != 0)
		return -1;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		printf("open %s: %s\n", path, strerror(errno));
		return -1;
	}
	len = strlen(f->content);
	n = write(fd, f->content, len);
	close(fd);
	if (n < 0 || (size_t)n != len) {
		printf("write %s failed\n", path);
		return -1;
	}
	return 0;
}

/* Remove everything under the folder open as @p dir_fd, then close it. */
static int
remove_tree_at(int dir_fd)
{
	struct dirent *e;
	DIR *dir;
	int ret = 0;
	int fd;

	dir = fdopendir(dir_fd);
	if (dir == NULL) {
		close(dir_fd);
		return -1;
	}
	while ((e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(dir), e->d_name, 0) == 0)
			continue;
		fd = openat(dirfd(dir), e->d_name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || remove_tree_at(fd) != 0 ||
				unlinkat(dirfd(dir), e->d_name, AT_REMOVEDIR) != 0)
			ret = -1;
	}
	closedir(dir);
	return ret;
}

static void
fixture_remove(void)
{
	int fd;

	if (fixture_dir[0] == '\0')
		return;
	fd = open(fixture_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || remove_tree_at(fd) != 0 || rmdir(fixture_dir) != 0)
		printf("cannot remove %s: %s\n", fixture_dir, strerror(errno));
	fixture_dir[0] = '\0';
}

int
pmu_fixture_setup(void)
{
	char link_path[PATH_MAX];
	char target[PATH_MAX];
	unsigned int i;

	strcpy(fixture_dir, "/tmp/pmu_fixture_XXXXXX");
	if (mkdtemp(fixture_dir) == NULL) {
		printf("mkdtemp: %s\n", strerror(errno));
		fixture_dir[0] = '\0';
		return TEST_FAILED;
	}

	for (i = 0; i < RTE_DIM(fixture_files); i++) {
		if (fixture_write(&fixture_files[i]) != 0) {
			fixture_remove();
			return TEST_FAILED;
		}
	}

	/* A link made by the fixture, not by a name: links are followed. */
	snprintf(link_path, sizeof(link_path), "%s/x86/cpu/events/leak-link", fixture_dir);
	snprintf(target, sizeof(target), "%s/evil/events/leak", fixture_dir);
	if (symlink(target, link_path) != 0) {
		printf("symlink: %s\n", strerror(errno));
		fixture_remove();
		return TEST_FAILED;
	}
	return TEST_SUCCESS;
}

/* The backend of this build, while a fixture names core PMUs its own way. */
static const struct pmu_arch_ops *real_ops;
static struct pmu_arch_ops named_ops;

void
pmu_fixture_teardown(void)
{
	if (real_ops != NULL)
		pmu_arch_swap(real_ops);
	__rte_pmu_sysfs_root_set(NULL);
	fixture_remove();
}

int
pmu_fixture_file(const char *path, const char *content)
{
	const struct fixture_file f = { .path = path, .content = content };

	return fixture_write(&f);
}

int
pmu_fixture_link(const char *path, const char *target)
{
	char full[PATH_MAX];

	snprintf(full, sizeof(full), "%s/%s", fixture_dir, path);
	if (make_parents(full) != 0)
		return -1;
	if (symlink(target, full) != 0) {
		printf("symlink %s: %s\n", full, strerror(errno));
		return -1;
	}
	return 0;
}

/* Core-PMU names come from the backend (its is_core_pmu hook). A fixture
 * tree of the other architecture is named as that architecture's backend
 * names it: the backend of this build with that hook in place of its own.
 */
static bool
arm64_names(const char *name)
{
	return strncmp(name, "armv8_", 6) == 0 || strncmp(name, "armv9_", 6) == 0;
}

static bool
x86_names(const char *name)
{
	return strcmp(name, "cpu") == 0 || strcmp(name, "cpu_core") == 0 ||
		strcmp(name, "cpu_atom") == 0;
}

static void
naming_for(const char *arch)
{
	/* arm64, biglittle, biglsw, realbig: arm64's trees; the others x86's. */
	bool arm = strncmp(arch, "arm", 3) == 0 || strstr(arch, "big") != NULL;
	const struct pmu_arch_ops *cur = pmu_arch_swap(NULL);

	if (real_ops == NULL)
		real_ops = cur;
	if (real_ops == NULL || (arm && real_ops->is_core_pmu("armv8_pmuv3")) ||
			(!arm && real_ops->is_core_pmu("cpu"))) {
		pmu_arch_swap(real_ops);
		return;
	}
	named_ops = *real_ops;
	named_ops.is_core_pmu = arm ? arm64_names : x86_names;
	pmu_arch_swap(&named_ops);
}

/* Use fixture_dir/@p arch as the sysfs root. */
int
use_root(const char *arch)
{
	char root[PATH_MAX];

	naming_for(arch);
	snprintf(root, sizeof(root), "%s/%s", fixture_dir, arch);
	return __rte_pmu_sysfs_root_set(root);
}

void
pmu_want_attr(struct perf_event_attr *attr, uint32_t type, uint64_t config,
	const char *levels)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->exclude_user = strchr(levels, 'u') == NULL;
	attr->exclude_kernel = strchr(levels, 'k') == NULL;
	attr->exclude_hv = strchr(levels, 'h') == NULL;
}

int
pmu_check_attr(const char *name, const char *core_pmu, const struct perf_event_attr *want,
	const char *pmu_name)
{
	struct pmu_event_desc d;
	int ret;

	memset(&d, 0xa5, sizeof(d));
	ret = pmu_event_encode(name, core_pmu, &d);
	TEST_ASSERT_EQUAL(ret, 0, "encode %s on %s: %d", name, core_pmu, ret);
	TEST_ASSERT_EQUAL(d.attr.type, want->type, "%s on %s: type %u, expected %u", name,
		core_pmu, d.attr.type, want->type);
	TEST_ASSERT_EQUAL(d.attr.config, want->config,
		"%s on %s: config 0x%" PRIx64 ", expected 0x%" PRIx64, name, core_pmu,
		(uint64_t)d.attr.config, (uint64_t)want->config);
	TEST_ASSERT(d.attr.exclude_user == want->exclude_user &&
		d.attr.exclude_kernel == want->exclude_kernel &&
		d.attr.exclude_hv == want->exclude_hv,
		"%s on %s: exclude user %d kernel %d hv %d, expected %d %d %d", name, core_pmu,
		d.attr.exclude_user, d.attr.exclude_kernel, d.attr.exclude_hv,
		want->exclude_user, want->exclude_kernel, want->exclude_hv);
	/* Every other field too, padding included. */
	TEST_ASSERT(memcmp(&d.attr, want, sizeof(*want)) == 0,
		"%s on %s: attr differs beyond type, config and exclusion", name, core_pmu);
	TEST_ASSERT(strcmp(d.pmu, pmu_name) == 0, "%s on %s: pmu \"%s\", expected \"%s\"",
		name, core_pmu, d.pmu, pmu_name);
	return TEST_SUCCESS;
}

int
pmu_check_fail(const char *name, const char *core_pmu, int err)
{
	struct pmu_event_desc d;
	int ret;

	memset(&d, 0xa5, sizeof(d));
	ret = pmu_event_encode(name, core_pmu, &d);
	TEST_ASSERT_EQUAL(ret, err, "encode \"%s\" on %s: %d, expected %d", name, core_pmu,
		ret, err);
	TEST_ASSERT(d.attr.type == 0 && d.attr.config == 0 && d.pmu[0] == '\0',
		"encode \"%s\" failed but left an encoding", name);
	return TEST_SUCCESS;
}

int
pmu_init_real(void)
{
	int ret = rte_pmu_init();

	if (ret == 0)
		return TEST_SUCCESS;
	TEST_ASSERT(access(PMU_SYSFS_ROOT_DEFAULT, F_OK) != 0,
		"rte_pmu_init: %s, though this kernel has perf_event (%s exists)",
		strerror(-ret), PMU_SYSFS_ROOT_DEFAULT);
	TEST_SKIP("no perf_event on this kernel (%s: %s), rte_pmu_init: %s",
		PMU_SYSFS_ROOT_DEFAULT, strerror(errno), strerror(-ret));
}
