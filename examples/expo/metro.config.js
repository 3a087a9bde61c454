// Metro bundles only what is under the project's root; the helpers the app imports are in the
// repository's clients/ folder (follow-session.js, by chat.ts; upload-files.js, by photos.ts), so
// Metro watches that folder too. An app of its own copies those files in instead.
const path = require('node:path');
const { getDefaultConfig } = require('expo/metro-config');

const config = getDefaultConfig(__dirname);
config.watchFolders = [path.resolve(__dirname, '../../clients')];
module.exports = config;
