/* The seccomp half of hearth.service's sandbox, for machines without systemd as PID 1 (CI):
 * scripts/check-package runs the installed server under it to show that the Swift runtime and
 * the server live with what the unit forbids.
 *   SystemCallFilter=   only the calls named in LIST-FILE; any other kills the process (stricter
 *                       than the unit's SystemCallErrorNumber=EPERM, so a stray call is seen)
 *   MemoryDenyWriteExecute=yes  systemd 252's rules: no mmap that is writable and executable,
 *                       no mprotect/pkey_mprotect adding PROT_EXEC, no shmat with SHM_EXEC
 *   RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX   socket() of another family: EAFNOSUPPORT
 *   NoNewPrivileges=yes
 * Build: cc -O2 -o sandbox sandbox.c -lseccomp (libseccomp-dev).
 * Usage: sandbox LIST-FILE PROGRAM [ARGS...] (LIST-FILE: system call names, one a line). */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <unistd.h>

static void fail(const char *what, int error) {
    fprintf(stderr, "sandbox: %s: %s\n", what, strerror(error));
    _exit(111);
}

static void deny(scmp_filter_ctx ctx, int error, int call, struct scmp_arg_cmp cmp, const char *what) {
    int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(error), call, 1, cmp);
    if (r < 0) fail(what, -r);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: sandbox LIST-FILE PROGRAM [ARGS...]\n");
        return 2;
    }
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) fail("no_new_privs", errno);

    /* First the rules that answer with an error; every call not denied passes them. */
    scmp_filter_ctx rules = seccomp_init(SCMP_ACT_ALLOW);
    if (!rules) fail("seccomp_init", ENOMEM);
    deny(rules, EPERM, SCMP_SYS(mmap), SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC | PROT_WRITE, PROT_EXEC | PROT_WRITE),
         "mmap rule");
    deny(rules, EPERM, SCMP_SYS(mprotect), SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC), "mprotect rule");
    deny(rules, EPERM, SCMP_SYS(pkey_mprotect), SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC), "pkey rule");
    deny(rules, EPERM, SCMP_SYS(shmat), SCMP_A2(SCMP_CMP_MASKED_EQ, SHM_EXEC, SHM_EXEC), "shmat rule");
    for (int family = 0; family < AF_MAX; family++) {
        if (family == AF_UNIX || family == AF_INET || family == AF_INET6) continue;
        deny(rules, EAFNOSUPPORT, SCMP_SYS(socket), SCMP_A0(SCMP_CMP_EQ, family), "socket rule");
    }
    int r = seccomp_load(rules);
    if (r < 0) fail("loading the rules", -r);

    /* Then the allow-list, last: seccomp() itself is not on it. */
    scmp_filter_ctx allow = seccomp_init(SCMP_ACT_KILL_PROCESS);
    if (!allow) fail("seccomp_init", ENOMEM);
    FILE *list = fopen(argv[1], "r");
    if (!list) fail(argv[1], errno);
    char name[128];
    int allowed = 0;
    while (fscanf(list, "%127s", name) == 1) {
        int call = seccomp_syscall_resolve_name(name);
        if (call == __NR_SCMP_ERROR) continue; /* a call of another architecture */
        r = seccomp_rule_add(allow, SCMP_ACT_ALLOW, call, 0);
        if (r < 0 && r != -EEXIST) fail(name, -r);
        allowed++;
    }
    fclose(list);
    fprintf(stderr, "sandbox: %d system calls allowed; W^X memory and other address families refused\n",
            allowed);
    r = seccomp_load(allow);
    if (r < 0) fail("loading the allow-list", -r);
    execv(argv[2], argv + 2);
    fail(argv[2], errno);
}
