build/obj/selftests/rawalk_run.o: /work/main/userspace/rawalk_run.c \
 /work/main/userspace/rawalk.h /work/main/userspace/util.h
/work/main/userspace/rawalk.h:
/work/main/userspace/util.h:
