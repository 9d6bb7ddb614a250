// SPDX-License-Identifier: MIT
// Test only: deploys OwnedWallets with CREATE2, so a wallet's address is known (and can sign,
// ERC-6492) before it exists. Never deployed outside tests.
pragma solidity 0.8.28;

import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";
import {OwnedWallet} from "./OwnedWallet.sol";

contract OwnedWalletFactory {
    /// Deploys the wallet of `owner` under `salt`, or answers it when it already exists: an
    /// ERC-6492 verifier may replay this call for a wallet deployed in the meantime.
    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = walletAddress(owner, salt);
        if (wallet.code.length == 0) Create2.deploy(0, salt, _initCode(owner));
    }

    function walletAddress(address owner, bytes32 salt) public view returns (address) {
        return Create2.computeAddress(salt, keccak256(_initCode(owner)));
    }

    function _initCode(address owner) private pure returns (bytes memory) {
        return abi.encodePacked(type(OwnedWallet).creationCode, abi.encode(owner));
    }
}
