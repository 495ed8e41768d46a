// SPDX-License-Identifier: GPL-2.0
/*
 * rapolicy-bpf: load, unload and show the BPF readahead policy.
 *
 *   rapolicy-bpf load FILE.bpf.o   register its struct rapolicy_ops
 *   rapolicy-bpf unload            unregister the loaded one
 *   rapolicy-bpf status            its name and struct_ops map id (and
 *                                  whether the watchdog ejected it), or none
 *
 * The struct_ops map is registered without a link, so it stays registered
 * when this program exits, and unload deletes its element, which
 * unregisters it synchronously: when unload returns, no fault runs the
 * program any more. rapolicy.ko shows the registered one in bpf_ops.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define BPF_OPS "/sys/kernel/mm/rapolicy/bpf_ops"

/*
 * "NAME ID [ejected]" from bpf_ops into @name, @id and @ejected; 1 if
 * none, -1 on error
 */
static int read_bpf_ops(char *name, size_t len, unsigned int *id,
			int *ejected)
{
	char line[128], fmt[32], word[16] = "";
	FILE *f = fopen(BPF_OPS, "r");
	int n;

	if (!f) {
		fprintf(stderr, "rapolicy-bpf: %s: %s (is rapolicy loaded?)\n",
			BPF_OPS, strerror(errno));
		return -1;
	}
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		fprintf(stderr, "rapolicy-bpf: %s: empty\n", BPF_OPS);
		return -1;
	}
	fclose(f);
	snprintf(fmt, sizeof(fmt), "%%%zus %%u %%15s", len - 1);
	n = sscanf(line, fmt, name, id, word);
	*ejected = n == 3 && !strcmp(word, "ejected");
	if (n == 2 || *ejected)
		return 0;
	if (n == 1 && (!strcmp(name, "none") || !strcmp(name, "unsupported")))
		return 1;
	fprintf(stderr, "rapolicy-bpf: %s: cannot parse \"%s\"\n", BPF_OPS, line);
	return -1;
}

static int cmd_status(void)
{
	char name[64];
	unsigned int id;
	int ejected, ret = read_bpf_ops(name, sizeof(name), &id, &ejected);

	if (ret < 0)
		return 1;
	if (ret)
		printf("%s\n", name);
	else
		printf("%s (struct_ops map %u)%s\n", name, id,
		       ejected ? ", ejected by the watchdog" : "");
	return 0;
}

static int cmd_load(const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	struct bpf_link *link;
	struct bpf_map *map;
	int n = 0;

	if (!obj) {
		fprintf(stderr, "rapolicy-bpf: %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "rapolicy-bpf: %s: the verifier or the kernel refused it\n",
			path);
		return 1;
	}
	bpf_object__for_each_map(map, obj) {
		if (bpf_map__type(map) != BPF_MAP_TYPE_STRUCT_OPS)
			continue;
		link = bpf_map__attach_struct_ops(map);
		if (!link) {
			fprintf(stderr, "rapolicy-bpf: %s: cannot register %s: %s\n",
				path, bpf_map__name(map), strerror(errno));
			return 1;
		}
		/* Stays registered after exit, until unload */
		bpf_link__disconnect(link);
		n++;
	}
	if (n != 1) {
		fprintf(stderr, "rapolicy-bpf: %s: %d struct_ops maps, want 1\n",
			path, n);
		return 1;
	}
	return cmd_status();
}

static int cmd_unload(void)
{
	char name[64];
	unsigned int id;
	int key = 0, fd, ejected;
	int ret = read_bpf_ops(name, sizeof(name), &id, &ejected);

	if (ret < 0)
		return 1;
	if (ret) {
		fprintf(stderr, "rapolicy-bpf: no BPF policy is loaded\n");
		return 1;
	}
	fd = bpf_map_get_fd_by_id(id);
	if (fd < 0 || bpf_map_delete_elem(fd, &key)) {
		fprintf(stderr, "rapolicy-bpf: cannot unregister %s (map %u): %s\n",
			name, id, strerror(errno));
		return 1;
	}
	printf("%s unloaded\n", name);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "load"))
		return cmd_load(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "unload"))
		return cmd_unload();
	if (argc == 2 && !strcmp(argv[1], "status"))
		return cmd_status();
	fprintf(stderr, "usage: rapolicy-bpf load FILE.bpf.o | unload | status\n");
	return 2;
}
