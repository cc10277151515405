#!/usr/bin/env node
'use strict';
// The same entry as the images' bundle, from the TypeScript build (dist/).
require('../dist/entry.js');
