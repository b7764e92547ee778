package wire

// adminAPIs lists the admin APIs (topics, configs, groups, cluster) with the
// versions gregor implements; filled in as each admin message file lands.
var adminAPIs []APIInfo
