// The app's entry point: the polyfills first, then the one screen.
import './polyfills';
import { registerRootComponent } from 'expo';
import App from './App';

registerRootComponent(App);
