// page routes (pages_my_shares), being written
