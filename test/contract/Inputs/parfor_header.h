static void fill(int *a) {
    parfor int i; 0; 3; 1;
        a[i] = i;
    epar
}
