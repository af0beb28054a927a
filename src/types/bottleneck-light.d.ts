// bottleneck's light build (no Redis clustering; what @octokit/plugin-throttling uses) has the full build's API.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck'
  export default Bottleneck
}
