// filled by the config area
