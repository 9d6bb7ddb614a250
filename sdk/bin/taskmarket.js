#!/usr/bin/env node
// The installed `taskmarket` command. A committed file, so npm links it into node_modules/.bin
// even before the first build writes dist/ (in this repository the root `npm install` builds it).
import '../dist/cli.js';
