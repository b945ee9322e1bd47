// page routes (pages_share), being written
