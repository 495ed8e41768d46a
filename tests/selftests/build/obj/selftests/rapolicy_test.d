build/obj/selftests/rapolicy_test.o: rapolicy_test.c \
 /var/cache/rapolicy/src/linux-source-7.3.4-1~bpo13+1/tools/testing/selftests/kselftest_harness.h \
 /var/cache/rapolicy/src/linux-source-7.3.4-1~bpo13+1/tools/testing/selftests/kselftest.h \
 /work/main/userspace/rawalk/rawalk.h /work/main/userspace/lib/util.h \
 /work/main/module/table.h
/var/cache/rapolicy/src/linux-source-7.3.4-1~bpo13+1/tools/testing/selftests/kselftest_harness.h:
/var/cache/rapolicy/src/linux-source-7.3.4-1~bpo13+1/tools/testing/selftests/kselftest.h:
/work/main/userspace/rawalk/rawalk.h:
/work/main/userspace/lib/util.h:
/work/main/module/table.h:
