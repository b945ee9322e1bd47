// page routes (pages_upload), being written
