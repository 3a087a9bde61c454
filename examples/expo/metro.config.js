// Metro bundles only what is under the project's root; the session feed's helper
// (clients/follow-session.js, imported by chat.ts) is in the repository's clients/ folder, so
// Metro watches that folder too. An app of its own copies the one file in instead.
const path = require('node:path');
const { getDefaultConfig } = require('expo/metro-config');

const config = getDefaultConfig(__dirname);
config.watchFolders = [path.resolve(__dirname, '../../clients')];
module.exports = config;
